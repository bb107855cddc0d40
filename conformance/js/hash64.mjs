// The deterministic stand-ins of tests/golden/DETERMINISTIC.md, shared by the runner and the stub.
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const TOKEN = /[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]/gu;
const encoder = new TextEncoder();

function fnv1a32(bytes) {
  let h = 2166136261;
  for (const b of bytes) h = Math.imul(h ^ b, 16777619) >>> 0;
  return h >>> 0;
}

function utf8(word) {
  // surrogatepass: a lone surrogate is encoded as its own 3 bytes, like Python's
  const out = [];
  for (let i = 0; i < word.length; i++) {
    const c = word.codePointAt(i);
    if (c > 0xffff) {
      out.push(...encoder.encode(String.fromCodePoint(c)));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    } else out.push(...encoder.encode(String.fromCharCode(c)));
  }
  return out;
}

export function hash64(text) {
  const vec = new Array(64).fill(0);
  for (const word of text.normalize('NFC').toLowerCase().match(WORD) ?? []) {
    const h = fnv1a32(utf8(word));
    vec[h % 64] += (h >>> 6) & 1 ? -1 : 1;
  }
  const norm = Math.sqrt(vec.reduce((s, v) => s + v * v, 0));
  return norm === 0 ? vec : vec.map((v) => v / norm);
}

export function wordpunct(text) {
  return (String(text).match(TOKEN) ?? []).length;
}

export function wordpunctTokens(text) {
  return String(text).match(TOKEN) ?? [];
}
