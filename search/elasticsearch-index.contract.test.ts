import { Client, HttpConnection } from "@elastic/elasticsearch";
import { createTestDatabase } from "../tests/support/database.ts";
import { ElasticsearchSearchIndex } from "./elasticsearch-index.ts";
import { describeSearchContract } from "./search-index.contract.ts";

// The SearchIndex contract (search/search-index.contract.ts) on a real Elasticsearch cluster, when
// TEST_ELASTICSEARCH_URL names one (e.g. http://127.0.0.1:9200; security off, or credentials in the URL). No cluster
// can run on the build machine, so without it this file declares no test; the adapter's requests are tested against
// a stand-in in tests/integration/elasticsearch-index.test.ts.
const url = process.env.TEST_ELASTICSEARCH_URL;
if (url) {
  describeSearchContract("Elasticsearch", {
    async open() {
      const handle = await createTestDatabase("pglite");
      const alias = `contract-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
      const client = new Client({ node: url, Connection: HttpConnection });
      const index = new ElasticsearchSearchIndex({ client, alias, db: handle.db });
      await index.reindex();
      return {
        index,
        async write(articles) {
          await handle.db
            .insertInto("articles")
            .values(
              articles.map((a) => ({
                ...a,
                abstract_sections: "[]",
                publication_types: [],
                content_hash: "h",
              })),
            )
            .execute();
          await index.index(articles.map((a) => a.pmid));
          await index.refresh();
        },
        async close() {
          for (const name of await index.aliasIndices()) await client.indices.delete({ index: name });
          await handle.close();
        },
      };
    },
  });
}
