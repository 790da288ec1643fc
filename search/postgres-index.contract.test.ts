import { sql } from "kysely";
import { LAYER_BACKENDS, createTestDatabase } from "../tests/support/database.ts";
import { PostgresSearchIndex } from "./postgres-index.ts";
import { describeSearchContract } from "./search-index.contract.ts";

// The SearchIndex contract (search/search-index.contract.ts) on the PostgreSQL adapter, on PGlite and PostgreSQL.
for (const backend of LAYER_BACKENDS) {
  describeSearchContract(`PostgreSQL full-text search on ${backend}`, {
    async open() {
      const handle = await createTestDatabase(backend);
      return {
        index: new PostgresSearchIndex(handle.db),
        async write(articles) {
          for (const a of articles) {
            await sql`
              INSERT INTO articles (pmid, title, abstract, publication_year, mesh_terms, keywords, content_hash)
              VALUES (${a.pmid}, ${a.title}, ${a.abstract}, ${a.publication_year},
                      ${`{${a.mesh_terms.map((m) => JSON.stringify(m)).join(",")}}`}::text[],
                      ${`{${a.keywords.map((m) => JSON.stringify(m)).join(",")}}`}::text[], 'h')`.execute(handle.db);
          }
        },
        close: () => handle.close(),
      };
    },
  });
}
