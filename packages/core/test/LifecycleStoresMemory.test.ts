import { lifecycleContract } from "@orchestrator/testing"
import { StorageMemory } from "../src/composition/StorageMemory.js"

lifecycleContract("memory", StorageMemory)
