/**
 * GET /preview/script-runner: the page the editor preview runs the bot's client-side
 * scripts in (resources/features/viewer/script_runner.ts). Served with a CSP sandbox
 * (SCRIPT_RUNNER_CSP): an opaque origin that can read no cookie and reach no page of the
 * builder; only the parent hears its answers.
 */
export const scriptRunnerPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Script runner</title></head><body><script>
(function () {
  var AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
  function text(value) {
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') return value;
    try { return JSON.stringify(value); } catch (e) { return String(value); }
  }
  window.addEventListener('message', async function (event) {
    if (event.source !== window.parent) return;
    var data = event.data;
    if (!data || data.type !== 'flowcraft:run-script') return;
    var reply = { type: 'flowcraft:script-result', id: data.id, ok: true };
    try {
      var fn = new (Function.prototype.bind.apply(AsyncFunction, [null].concat(data.names || [], [String(data.content)])))();
      reply.value = text(await fn.apply(null, data.values || []));
    } catch (error) {
      reply.ok = false;
      reply.error = String(error && error.message ? error.message : error);
    }
    window.parent.postMessage(reply, '*');
  });
  window.parent.postMessage({ type: 'flowcraft:script-runner-ready' }, '*');
})();
</script></body></html>
`
