import { StorageSql } from "@orchestrator/sql/StorageSql"
import { repositoryContract } from "@orchestrator/testing/RepositoryContract"
import { testDatabases } from "@orchestrator/testing/TestDatabases"
import { Layer } from "effect"

for (const database of testDatabases()) {
  repositoryContract(database.name, StorageSql.pipe(Layer.provideMerge(database.layer)))
}
