// Calling the library compiled to WebAssembly (lastbite.wasm) through its three exports:
// the name and the request go in as UTF-8 buffers the module allocates; one buffer comes
// back, a status (0 the report, 1 a bad request, 2 over the page's budget), a length and
// the text. Used by the page's worker and by the browser tests for their reference
// answers.
export function callModule(wasm, command, request) {
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
