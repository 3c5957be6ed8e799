/** Document frequencies of conversation terms, for the evidence gate of `search_sessions`. */
export default `
CREATE VIRTUAL TABLE session_turns_vocab USING fts5vocab(session_turns_fts, 'row');
`;
