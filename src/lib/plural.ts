/** `1 day`, `2 days`, `0 days`: a count with its noun in the right number. */
export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
