import { lifecycleContract } from "@orchestrator/testing"
import { StorageMemory } from "../src/memory/StorageMemory.js"

lifecycleContract("memory", StorageMemory)
