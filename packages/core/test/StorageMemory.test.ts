import { repositoryContract } from "@orchestrator/testing"
import { StorageMemory } from "../src/composition/StorageMemory.js"

repositoryContract("memory", StorageMemory)
