/*
| The JavaScript that runs inside every fresh context before the user's code. It is compiled once
| per isolate as a function (GUEST_SCRIPT) and called once per context; `$0`..`$5` are its arguments:
|   $0 sleep Reference (host), $1 log Callback (host), $2 setVariable Callback (host),
|   $3 input JSON ({variables, args}), $4 user source, $5 options JSON.
|
| The user's code is compiled with the AsyncFunction constructor rather than pasted into this
| closure: such a function sees only the global scope, so it cannot reach the host handles held
| here, and a stray `}` in the user's code cannot break out of a wrapper.
|
| It always settles with a string: 'u' (undefined), 'v' + JSON, or 'e' + JSON {name, message}.
| The host trusts none of it and validates the string again.
*/
const GUEST_BODY = String.raw`
'use strict';
const sleepRef = $0;
const hostLog = $1;
const hostSet = $2;
const input = JSON.parse($3);
const source = $4;
const options = JSON.parse($5);

// Captured before user code runs: user code may overwrite any global or prototype.
const stringify = JSON.stringify;
const StringCtor = String;
const SyntaxErrorCtor = SyntaxError;
const defineProperty = Object.defineProperty;
const AsyncFunction = (async function () {}).constructor;
const sliceString = Function.prototype.call.bind(String.prototype.slice);

// Shared memory and WebAssembly are not needed by snippets and widen what the sandbox must police.
for (const name of ['SharedArrayBuffer', 'Atomics', 'WebAssembly']) delete globalThis[name];

function describe(value) {
  if (typeof value === 'string') return value;
  try {
    const json = stringify(value);
    if (json !== undefined) return json;
  } catch {}
  try {
    return StringCtor(value);
  } catch {
    return '[unprintable value]';
  }
}

let logCount = 0;
function emit(level, values) {
  if (logCount > options.maxLogs) return;
  logCount++;
  if (logCount > options.maxLogs) {
    hostLog('warn', 'Further console output was dropped (limit of ' + options.maxLogs + ' entries).');
    return;
  }
  let message = '';
  for (let i = 0; i < values.length && message.length <= options.maxLogChars; i++) {
    message += (i ? ' ' : '') + describe(values[i]);
  }
  // Cut here as well as on the host, so a huge string is not copied out only to be discarded.
  hostLog(level, message.length > options.maxLogChars ? sliceString(message, 0, options.maxLogChars + 1) : message);
}

const sandboxConsole = {};
for (const level of ['log', 'info', 'warn', 'error']) {
  sandboxConsole[level] = (...values) => emit(level, values);
}
sandboxConsole.debug = sandboxConsole.log;
sandboxConsole.trace = sandboxConsole.log;
defineProperty(globalThis, 'console', { value: sandboxConsole, writable: true, configurable: true });

function errorInfo(error) {
  let name = 'Error';
  let message = '';
  try {
    if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
      name = StringCtor(error.name === undefined ? 'Error' : error.name);
      message = StringCtor(error.message === undefined ? '' : error.message);
    } else {
      message = describe(error);
    }
  } catch {
    message = 'An error was thrown that could not be described';
  }
  return stringify({ name, message });
}

function encode(value) {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  return stringify(value);
}

const pendingTimers = new Map();
let nextTimerId = 1;
function setTimeout(callback, ms, ...params) {
  if (typeof callback !== 'function') throw new TypeError('setTimeout expects a function');
  if (pendingTimers.size >= options.maxTimers) {
    throw new RangeError('Too many pending timers (limit of ' + options.maxTimers + ')');
  }
  const id = nextTimerId++;
  pendingTimers.set(id, true);
  const delay = Number(ms) > 0 ? Number(ms) : 0;
  sleepRef.apply(undefined, [delay], { result: { promise: true } }).then(
    () => {
      if (!pendingTimers.delete(id)) return;
      try {
        callback(...params);
      } catch (error) {
        emit('error', ['Uncaught error in a setTimeout callback: ' + errorInfo(error)]);
      }
    },
    () => {}
  );
  return id;
}
function clearTimeout(id) {
  pendingTimers.delete(id);
}
defineProperty(globalThis, 'setTimeout', { value: setTimeout, writable: true, configurable: true });
defineProperty(globalThis, 'clearTimeout', { value: clearTimeout, writable: true, configurable: true });

function setVariable(name, value) {
  if (typeof name !== 'string' || name === '') throw new TypeError('setVariable expects a variable name');
  const json = encode(value);
  if (json !== undefined && json.length > options.maxSetChars) {
    // The host learns of the refusal (a non-string value is refused) without the copy.
    hostSet(name, false);
    throw new RangeError('setVariable received a value larger than ' + options.maxSetChars + ' characters');
  }
  const refusal = hostSet(name, json === undefined ? null : json);
  if (refusal) throw new RangeError(refusal);
}
defineProperty(globalThis, 'setVariable', { value: setVariable, writable: true, configurable: true });

function compile() {
  const params = ['variables', 'args', ...options.argNames];
  if (options.expression) {
    try {
      return new AsyncFunction(...params, 'return (\n' + source + '\n)');
    } catch (error) {
      if (!(error instanceof SyntaxErrorCtor)) throw error;
    }
  }
  return new AsyncFunction(...params, source);
}

const argValues = options.argNames.map((name) => input.args[name]);

return (async () => {
  let value;
  try {
    const fn = compile();
    value = await fn.call(undefined, input.variables, input.args, ...argValues);
  } catch (error) {
    return 'e' + errorInfo(error);
  }
  let json;
  try {
    json = encode(value);
  } catch (error) {
    return 'e' + errorInfo(error);
  }
  return json === undefined ? 'u' : 'v' + json;
})();
`

/** Compiling once per isolate instead of once per run saves about 0.3 ms a run. */
export const GUEST_SCRIPT = `(function ($0, $1, $2, $3, $4, $5) {${GUEST_BODY}})`
