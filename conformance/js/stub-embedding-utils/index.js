// embedding-utils stand-in: the library's provider path gets hash64 vectors, its tokenizer
// counts wordpunct tokens, and cosineSimilarity is the one-pass float64 cosine.
import { hash64, wordpunct } from './hash64.mjs';

export function createLocalProvider() {
  return { embed: async (texts) => ({ embeddings: texts.map(hash64) }) };
}

export function createTokenizer() {
  return {
    load: async () => {},
    count: (text) => wordpunct(text),
    countBatch: (texts) => texts.map(wordpunct),
  };
}

export function cosineSimilarity(a, b) {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  const d = Math.sqrt(na) * Math.sqrt(nb);
  return d === 0 ? 0 : dot / d;
}

export function disposeLocalPipelines() {}
export function disposeLocalTokenizers() {}
