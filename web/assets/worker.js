// The static explorer's computations: the library compiled to WebAssembly
// (lastbite.wasm, built by scripts/site), called through its three exports. One message
// in, { id, command, request } with the request as JSON text; one message out,
// { id, status, text }: status 0 is the report's JSON, 1 a bad request, 2 over this
// page's budget, 3 a failure of the module itself (a bug: the page starts a new worker).
"use strict";
const ready = WebAssembly.instantiateStreaming(fetch("lastbite.wasm"), {}).then((r) => r.instance.exports);

function call(wasm, command, request) {
  const enc = new TextEncoder();
  const put = (bytes) => {
    const p = wasm.lastbite_alloc(bytes.length);
    new Uint8Array(wasm.memory.buffer, p, bytes.length).set(bytes);
    return p;
  };
  const name = enc.encode(command), body = enc.encode(request);
  const out = wasm.lastbite_call(put(name), name.length, put(body), body.length);
  const view = new DataView(wasm.memory.buffer);
  const status = view.getUint32(out, true), len = view.getUint32(out + 4, true);
  const text = new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, out + 8, len));
  wasm.lastbite_free(out, 8 + len);
  return { status, text };
}

self.onmessage = async (e) => {
  const { id, command, request } = e.data;
  try {
    const wasm = await ready;
    self.postMessage({ id, ...call(wasm, command, request) });
  } catch (err) {
    self.postMessage({ id, status: 3, text: "the computation failed in this tab: " + (err && err.message ? err.message : err) });
  }
};
