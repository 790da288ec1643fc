// Runs under Node (autocannon's home): POST /api/v1/likes/{pmid} with a bearer token, each request on the next PMID of
// the list, so that every request is a first like (insert + read back), not a repeat. Prints autocannon's JSON result.
// Usage: node scripts/bench/autocannon-likes.mjs URL TOKEN PMIDS_FILE CONNECTIONS SECONDS
import autocannon from "autocannon";
import { readFileSync } from "node:fs";

const [url, token, pmidsFile, connections, seconds] = process.argv.slice(2);
const pmids = readFileSync(pmidsFile, "utf8").trim().split(/\s+/);
let next = 0;
const result = await autocannon({
  url,
  connections: Number(connections),
  duration: Number(seconds),
  method: "POST",
  headers: { authorization: `Bearer ${token}` },
  requests: [
    {
      setupRequest: (req) => {
        req.path = `/api/v1/likes/${pmids[next++ % pmids.length]}`;
        return req;
      },
    },
  ],
});
process.stdout.write(JSON.stringify({ ...result, distinctPmids: Math.min(next, pmids.length), requestsMade: next }));
