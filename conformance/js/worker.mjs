// Runs one case at a time inside a worker thread and posts back the library's result in the
// shape of the golden files (tests/golden/README.md).
import { parentPort } from 'node:worker_threads';
import { hash64 } from './stub-embedding-utils/hash64.mjs';

// stdout carries the protocol: the libraries' own console lines must not reach it
for (const level of ['log', 'info', 'warn', 'error', 'debug', 'trace']) console[level] = () => {};

let libs = {};
async function lib(name) {
  if (!libs[name]) {
    if (name === 'mastra') libs[name] = await import('@mastra/rag');
    else if (name === 'tiktoken') libs[name] = await import('js-tiktoken');
    else if (name === 'SemanticChunker')
      libs[name] = await import('@framers/agentos/cognition/rag/chunking/SemanticChunker');
    else if (name === 'ChunkingEngine')
      libs[name] = await import('@framers/agentos/memory/io/ingestion/ChunkingEngine');
    else if (name === 'semantic-chunking') libs[name] = await import('semantic-chunking');
  }
  return libs[name];
}

function errorOf(err) {
  return { error: err?.name ?? 'Error', message: String(err?.message ?? err) };
}

const lengthFunctions = new Map();

// Options placeholders: {"$fn": name} is the length function "Copy as code" writes (its JS
// source comes with the case), {"$set": [...]} a Set.
async function revive(value, lengthJs) {
  if (Array.isArray(value)) return Promise.all(value.map((v) => revive(v, lengthJs)));
  if (value && typeof value === 'object') {
    if ('$fn' in value) {
      const source = lengthJs?.[value.$fn];
      if (!source) throw new Error(`no JS source for lengthFunction ${value.$fn}`);
      if (!lengthFunctions.has(source)) {
        // built once per worker: the functions are pure, and building the cl100k one
        // (its encoding) takes about a second
        const { encodingForModel } = await lib('tiktoken');
        lengthFunctions.set(source, new Function('encodingForModel', `return ${source}`)(encodingForModel));
      }
      return lengthFunctions.get(source);
    }
    if ('$set' in value) return new Set(value.$set);
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = await revive(v, lengthJs);
    return out;
  }
  return value;
}

const FACTORY = { text: 'fromText', markdown: 'fromMarkdown', html: 'fromHTML', json: 'fromJSON' };

async function mastra(c) {
  const { MDocument } = await lib('mastra');
  const options = await revive(c.options, c.length_js);
  const factory = FACTORY[c.doc ?? 'text'];
  const doc = 'metadata' in c ? MDocument[factory](c.input, c.metadata) : MDocument[factory](c.input);
  try {
    const chunks = await doc.chunk(options);
    return chunks.map((n) => ({ text: n.text, metadata: n.metadata }));
  } catch (err) {
    return errorOf(err);
  }
}

async function semanticChunker(c) {
  const { SemanticChunker } = await lib('SemanticChunker');
  try {
    const chunker = new SemanticChunker(c.options);
    return 'metadata' in c ? chunker.chunk(c.input, c.metadata) : chunker.chunk(c.input);
  } catch (err) {
    return errorOf(err);
  }
}

async function chunkingEngine(c) {
  const { ChunkingEngine } = await lib('ChunkingEngine');
  const options = { ...c.options };
  if (c.embedder === 'hash64') options.embedFn = async (texts) => texts.map(hash64);
  try {
    return await new ChunkingEngine().chunk(c.input, options);
  } catch (err) {
    return errorOf(err);
  }
}

async function semanticChunking(c) {
  const sc = await lib('semantic-chunking');
  const fn = sc[c.entry.split('.')[1]];
  const options = { ...c.options };
  if (c.embed_path !== 'stub-provider') options.embedCallback = async (texts) => texts.map(hash64);
  const realNow = Date.now;
  Date.now = () => 1700000000000; // document_id, as in the golden cases
  try {
    const output = await fn(structuredClone(c.documents), options);
    return { output: JSON.parse(JSON.stringify(output)), error: null };
  } catch (err) {
    return { output: null, error: { name: err?.name ?? 'Error', message: String(err?.message ?? err) } };
  } finally {
    Date.now = realNow;
  }
}

const RUNNERS = {
  'mastra.chunk': mastra,
  'agentos.SemanticChunker': semanticChunker,
  'agentos.ChunkingEngine': chunkingEngine,
  'semantic-chunking.chunkit': semanticChunking,
  'semantic-chunking.cramit': semanticChunking,
  'semantic-chunking.sentenceit': semanticChunking,
};

parentPort.on('message', async (c) => {
  let result;
  try {
    result = await RUNNERS[c.entry](c);
    result = JSON.parse(JSON.stringify(result ?? null));
  } catch (err) {
    result = { harnessError: errorOf(err) };
  }
  parentPort.postMessage({ result });
});
