import { StorageSql } from "@orchestrator/sql/StorageSql"
import { lifecycleContract } from "@orchestrator/testing/LifecycleContract"
import { testDatabases } from "@orchestrator/testing/TestDatabases"
import { Layer } from "effect"

for (const database of testDatabases()) {
  lifecycleContract(database.name, StorageSql.pipe(Layer.provideMerge(database.layer)))
}
