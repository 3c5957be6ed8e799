/**
 * USE-lite's SentencePiece tokenizer, as `@energetic-ai/embeddings` 0.2.0 has it (Apache-2.0, from
 * `@tensorflow-models/universal-sentence-encoder`), ported so that the ONNX path loads no TF.js: the
 * same ids, quirks included (an unknown symbol is id 0 and runs of them merge; the backward walk
 * steps by the vocabulary piece's UTF-16 length). Its trie keeps a piece's symbol count, score and
 * id at the node where it ends, instead of every prefix as an array of characters.
 */
'use strict';

function createTokenizer(vocabulary, reserved = 6) {
  const root = { children: new Map(), end: null };
  for (let id = reserved; id < vocabulary.length; id++) {
    const [piece, score] = vocabulary[id];
    let node = root;
    let n = 0;
    for (const c of piece) {
      let next = node.children.get(c);
      if (!next) node.children.set(c, (next = { children: new Map(), end: null }));
      node = next;
      n++;
    }
    node.end = { length: n, score, id };
  }
  const prefixes = (symbols, from) => {
    const out = [];
    let node = root.children.get(symbols[from]);
    for (let i = from; i < symbols.length && node; i++) {
      if (node.end) out.push(node.end);
      node = node.children.get(symbols[i + 1]);
    }
    return out.length ? out : [{ length: 1, score: 0, id: 0 }];
  };
  return {
    encode(input) {
      const normalized = input.normalize('NFKC');
      const symbols = [...(normalized.length > 0 ? '\u2581' + normalized.replace(/ /g, '\u2581') : normalized)];
      const ending = Array.from({ length: symbols.length + 1 }, () => []);
      for (let i = 0; i < symbols.length; i++)
        for (const p of prefixes(symbols, i)) ending[i + p.length].push({ start: i, ...p });
      const best = new Array(symbols.length + 1).fill(0);
      const words = new Array(symbols.length + 1).fill(0);
      for (let end = 0; end <= symbols.length; end++) {
        for (const p of ending[end]) {
          const score = p.score + best[end - p.length];
          if (best[end] === 0 || score >= best[end]) {
            best[end] = score;
            words[end] = p.id;
          }
        }
      }
      const ids = [];
      for (let at = words.length - 1; at > 0; at -= vocabulary[words[at]][0].length) ids.push(words[at]);
      const merged = [];
      let unknown = false;
      for (const id of ids) {
        if (!(unknown && id === 0)) merged.push(id);
        unknown = id === 0;
      }
      return merged.reverse();
    },
  };
}

module.exports = { createTokenizer };
