// The static explorer's computations: the library compiled to WebAssembly
// (lastbite.wasm, built by scripts/site), in a module worker. One message in,
// { id, command, request } with the request as JSON text; one message out,
// { id, status, text }: status 0 is the report's JSON, 1 a bad request, 2 over this
// page's budget, 3 a failure of the module itself (a bug: the page starts a new worker).
import { callModule } from "./js/wasm.js";

const ready = WebAssembly.instantiateStreaming(fetch("lastbite.wasm"), {}).then((r) => r.instance.exports);

self.onmessage = async (e) => {
  const { id, command, request } = e.data;
  try {
    self.postMessage({ id, ...callModule(await ready, command, request) });
  } catch (err) {
    self.postMessage({ id, status: 3, text: "the computation failed in this tab: " + (err && err.message ? err.message : err) });
  }
};
