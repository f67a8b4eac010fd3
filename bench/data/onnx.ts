/**
 * A minimal protobuf reader for ONNX ModelProto files: it extracts every FLOAT (data_type 1) tensor
 * stored in the model, from the main graph's initializers and from any subgraph held in node
 * attributes, as {name, dims, data}. Only what that needs is decoded; every other field is skipped by
 * its wire type. External data (data_location = EXTERNAL) is not supported: such tensors raise.
 *
 * Field numbers (onnx.proto3): ModelProto.graph = 7; GraphProto.node = 1, initializer = 5;
 * NodeProto.attribute = 5; AttributeProto.t = 5, g = 6, tensors = 10, graphs = 11;
 * TensorProto.dims = 1, data_type = 2, float_data = 4, name = 8, raw_data = 9, data_location = 14.
 * @module
 */

/** One fp32 tensor of a model. */
export interface FloatTensor {
  name: string;
  dims: number[];
  data: Float32Array;
}

const WIRE_VARINT = 0, WIRE_I64 = 1, WIRE_LEN = 2, WIRE_I32 = 5;
const TENSOR_FLOAT = 1;
const LOCATION_EXTERNAL = 1;

/** A cursor over a protobuf message's bytes. Throws on any read past the end. */
class Reader {
  pos: number;
  constructor(readonly buf: Uint8Array, start = 0, readonly end = buf.length) {
    this.pos = start;
  }
  done(): boolean {
    return this.pos >= this.end;
  }
  /** A varint as a JS number (exact up to 2^53; larger values only occur in fields we skip). */
  varint(): number {
    let value = 0, scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error("onnx: truncated varint");
      const b = this.buf[this.pos++];
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
    throw new Error("onnx: varint longer than 10 bytes");
  }
  /** A length-delimited field's [start, end) in the buffer. */
  span(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    if (len > this.end - start) throw new Error("onnx: length-delimited field past the end of its message");
    this.pos = start + len;
    return [start, this.pos];
  }
  skip(wire: number): void {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_I64) this.advance(8);
    else if (wire === WIRE_LEN) this.span();
    else if (wire === WIRE_I32) this.advance(4);
    else throw new Error(`onnx: unsupported protobuf wire type ${wire}`);
  }
  private advance(n: number): void {
    if (n > this.end - this.pos) throw new Error("onnx: fixed-width field past the end of its message");
    this.pos += n;
  }
  /** Calls visit(field, wire) for each field; visit must consume the value or return false to skip it. */
  fields(visit: (field: number, wire: number) => boolean): void {
    while (!this.done()) {
      const key = this.varint();
      const field = Math.floor(key / 8), wire = key & 7;
      if (!visit(field, wire)) this.skip(wire);
    }
  }
}

const utf8 = new TextDecoder();

function readTensor(buf: Uint8Array, start: number, end: number): FloatTensor | null {
  const r = new Reader(buf, start, end);
  let name = "", dataType = 0, location = 0;
  const dims: number[] = [];
  let raw = null as [number, number] | null; // "as": set inside a callback, so TS must not narrow it
  const floats: number[] = [];
  const packedFloats: [number, number][] = [];
  r.fields((field, wire) => {
    if (field === 1 && wire === WIRE_VARINT) dims.push(r.varint());
    else if (field === 1 && wire === WIRE_LEN) {
      const [s, e] = r.span();
      const sub = new Reader(buf, s, e);
      while (!sub.done()) dims.push(sub.varint());
    } else if (field === 2 && wire === WIRE_VARINT) dataType = r.varint();
    else if (field === 4 && wire === WIRE_LEN) packedFloats.push(r.span());
    else if (field === 4 && wire === WIRE_I32) {
      const s = r.pos;
      r.skip(WIRE_I32);
      floats.push(new DataView(buf.buffer, buf.byteOffset + s, 4).getFloat32(0, true));
    } else if (field === 8 && wire === WIRE_LEN) {
      const [s, e] = r.span();
      name = utf8.decode(buf.subarray(s, e));
    } else if (field === 9 && wire === WIRE_LEN) raw = r.span();
    else if (field === 14 && wire === WIRE_VARINT) location = r.varint();
    else return false;
    return true;
  });
  if (dataType !== TENSOR_FLOAT) return null;
  if (location === LOCATION_EXTERNAL) {
    throw new Error(`onnx: tensor ${name} uses external data (not supported)`);
  }
  const count = dims.reduce((a, b) => a * b, 1);
  let data: Float32Array;
  if (raw !== null) {
    const [s, e] = raw;
    if (e - s !== count * 4) {
      throw new Error(`onnx: tensor ${name}: raw_data has ${e - s} bytes, dims need ${count * 4}`);
    }
    data = new Float32Array(count);
    new Uint8Array(data.buffer).set(buf.subarray(s, e)); // copy: raw_data is rarely 4-byte aligned
  } else {
    const total = packedFloats.reduce((a, [s, e]) => a + (e - s), 0);
    if (total % 4 !== 0) throw new Error(`onnx: tensor ${name}: packed float_data is not whole floats`);
    data = new Float32Array(total / 4 + floats.length);
    const bytes = new Uint8Array(data.buffer);
    let at = 0;
    for (const [s, e] of packedFloats) {
      bytes.set(buf.subarray(s, e), at);
      at += e - s;
    }
    data.set(floats, at / 4);
    if (data.length !== count) {
      throw new Error(`onnx: tensor ${name}: float_data has ${data.length} values, dims need ${count}`);
    }
  }
  return { name, dims, data };
}

function readAttribute(buf: Uint8Array, start: number, end: number, out: FloatTensor[]): void {
  const r = new Reader(buf, start, end);
  r.fields((field, wire) => {
    if (wire !== WIRE_LEN) return false;
    const [s, e] = r.span();
    if (field === 5 || field === 10) {
      const t = readTensor(buf, s, e);
      if (t) out.push(t);
    } else if (field === 6 || field === 11) readGraph(buf, s, e, out);
    return true;
  });
}

function readGraph(buf: Uint8Array, start: number, end: number, out: FloatTensor[]): void {
  const r = new Reader(buf, start, end);
  r.fields((field, wire) => {
    if (wire !== WIRE_LEN) return false;
    const [s, e] = r.span();
    if (field === 5) {
      const t = readTensor(buf, s, e);
      if (t) out.push(t);
    } else if (field === 1) {
      // NodeProto: only its attributes (field 5) can hold tensors or subgraphs.
      const node = new Reader(buf, s, e);
      node.fields((f, w) => {
        if (f !== 5 || w !== WIRE_LEN) return false;
        const [as, ae] = node.span();
        readAttribute(buf, as, ae, out);
        return true;
      });
    }
    return true;
  });
}

/**
 * Every FLOAT tensor of an ONNX model (initializers of the graph and of subgraphs, and tensor-valued
 * node attributes such as Constant values), in file order. Throws on malformed protobuf.
 */
export function readOnnxFloatTensors(model: Uint8Array): FloatTensor[] {
  const out: FloatTensor[] = [];
  const r = new Reader(model);
  let sawGraph = false;
  r.fields((field, wire) => {
    if (field !== 7 || wire !== WIRE_LEN) return false;
    const [s, e] = r.span();
    readGraph(model, s, e, out);
    sawGraph = true;
    return true;
  });
  if (!sawGraph) throw new Error("onnx: no graph in the model (is this an ONNX ModelProto file?)");
  return out;
}
