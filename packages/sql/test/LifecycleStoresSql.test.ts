import { lifecycleContract, testDatabases } from "@orchestrator/testing"
import { Layer } from "effect"
import { StorageSql } from "../src/StorageSql.js"

for (const database of testDatabases()) {
  lifecycleContract(database.name, StorageSql.pipe(Layer.provideMerge(database.layer)))
}
