import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Who has the embedded database open. PGlite runs PostgreSQL inside one process and keeps no lock a second process
 * would respect: a tool that opens the same data folder while the server runs reads a half-written state and dies
 * with WebAssembly's bare "Aborted()" (or, worse, shuts the database down under the server). The server therefore
 * leaves its process id in the data folder while it runs, and the command-line tools look for it first
 * (docs/decisions/0036-first-hour.md).
 */

/** The file, inside DATA_DIR, that names the process holding the embedded database. */
export const EMBEDDED_LOCK_FILE = "litreview-server.pid";

/** Whether a process with this id exists (signal 0 checks without signalling; EPERM: it exists, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether `dataDir` is an embedded database folder on disk (not PGlite's in-memory "memory://"). */
function onDisk(dataDir: string): boolean {
  return !dataDir.includes("://");
}

/**
 * Records this process as the holder of the embedded database in `dataDir` (creating the folder if need be).
 * @returns a function that removes the record, if it is still this process's (call it once the database is closed).
 */
export function claimEmbeddedLock(dataDir: string, pid: number = process.pid): () => void {
  if (!onDisk(dataDir)) return () => {};
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, EMBEDDED_LOCK_FILE);
  writeFileSync(file, `${pid}\n`);
  return () => {
    if (embeddedHolderPid(dataDir) === pid) rmSync(file, { force: true });
  };
}

/** The process id recorded in `dataDir`, or null when there is none or it cannot be read. */
function embeddedHolderPid(dataDir: string): number | null {
  const file = join(dataDir, EMBEDDED_LOCK_FILE);
  if (!existsSync(file)) return null;
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * The id of another live process holding the embedded database in `dataDir`, or null: none recorded, the record
 * is this process's own, or its process is gone (a server that crashed leaves a stale record, which is ignored).
 */
export function embeddedHolder(dataDir: string, alive: (pid: number) => boolean = processAlive): number | null {
  if (!onDisk(dataDir)) return null;
  const pid = embeddedHolderPid(dataDir);
  return pid !== null && pid !== process.pid && alive(pid) ? pid : null;
}

/**
 * Whether an error is PGlite's WebAssembly abort ("Aborted()"), what a second process opening the folder meets, or
 * has one as its cause (src/db/embedded.ts wraps an engine's stop).
 */
export function isEmbeddedAbort(err: unknown): boolean {
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const message = e instanceof Error ? e.message : String(e);
    if (/\bAborted\(/.test(message)) return true;
    e = e instanceof Error ? e.cause : undefined;
  }
  return false;
}

/** What to tell someone whose tool met the embedded database open in the server (`pid` when known). */
export function embeddedInUseMessage(dataDir: string, pid: number | null): string {
  const who = pid === null ? "another process (the server?)" : `the server (process ${pid})`;
  return (
    `the embedded database in ${dataDir} is open in ${who}, and an embedded (PGlite) database can be opened by only ` +
    "one process at a time. Either stop the server and run this again, or read the messages through the server: " +
    "it prints each e-mail it stores, with its text, to its own output at LOG_LEVEL=info (the default)."
  );
}
