// Run a Python file under MicroPython's WebAssembly port (a real MicroPython, v1.27).
//
//   node run.mjs [--copy HOST_DIR:MP_DIR]... SCRIPT.py [ARG]...
//
// Each --copy puts a host directory tree into MicroPython's in-memory filesystem;
// every MP_DIR also goes on sys.path.  SCRIPT.py runs as __main__ with sys.argv
// set to [SCRIPT.py, ARG...].  What Python writes to sys.stdout / sys.stderr comes
// out byte for byte on this process's stdout / stderr.  Python's stdin is a queue
// that the script fills itself with `import usb; usb.send(hex)` (the bytes the host
// sends on the serial line, as hex digits); an empty queue reads as end of input.
// Exit status: 0 when the script ends normally or by SystemExit(0), 1 on an
// uncaught exception (its traceback on stderr).
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const args = process.argv.slice(2);
const copies = [];
while (args[0] === "--copy") {
  const [host, mp] = args[1].split(":");
  copies.push({ host, mp });
  args.splice(0, 2);
}
const [script, ...scriptArgs] = args;
if (!script) {
  console.error("usage: node run.mjs [--copy HOST_DIR:MP_DIR]... SCRIPT.py [ARG]...");
  process.exit(2);
}

// Byte-exact output, written a line at a time.
function writer(stream) {
  let pending = [];
  const flush = () => { if (pending.length) stream.write(Buffer.from(pending)); pending = []; };
  return { put: (bytes) => { pending.push(...bytes); if (bytes.includes(10)) flush(); }, flush };
}
const out = writer(process.stdout), err = writer(process.stderr);
const input = [];
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  linebuffer: false,
  stdout: out.put,
  stderr: err.put,
  stdin: () => (input.length ? input.shift() : null),
});
mp.registerJsModule("usb", {
  send: (hex) => { for (const b of Buffer.from(hex, "hex")) input.push(b); },
  pending: () => input.length,
});

function copyTree(host, target) {
  mp.FS.mkdirTree(target);
  for (const entry of fs.readdirSync(host, { withFileTypes: true })) {
    const from = path.join(host, entry.name);
    const to = `${target}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__" && entry.name !== "node_modules") copyTree(from, to);
    } else if (entry.isFile()) {
      mp.FS.writeFile(to, fs.readFileSync(from));
    }
  }
}
for (const { host, mp: target } of copies) copyTree(host, target);
const scriptPath = `/run/${path.basename(script)}`;
mp.FS.mkdirTree("/run");
mp.FS.writeFile(scriptPath, fs.readFileSync(script));

const setup = [
  "import sys",
  ...copies.map(({ mp: target }) => `sys.path.insert(0, ${JSON.stringify(target)})`),
  `sys.argv[:] = ${JSON.stringify([scriptPath, ...scriptArgs])}`,
].join("\n");
let status = 0;
try {
  mp.runPython(setup);
  mp.runPython(
    `__name__ = "__main__"\n` +
    `try:\n    exec(compile(open(${JSON.stringify(scriptPath)}).read(), ${JSON.stringify(script)}, "exec"))\n` +
    `except SystemExit as e:\n    __exit = e.args[0] if e.args and e.args[0] is not None else 0\n` +
    `    __exit = __exit if isinstance(__exit, int) else 1\n` +
    `else:\n    __exit = 0\n`);
  status = mp.globals.get("__exit");
} catch (e) {
  // An uncaught Python exception: its traceback is the error's message.
  process.stderr.write(String(e.message ?? e) + "\n");
  status = 1;
}
out.flush();
err.flush();
process.exitCode = status;
