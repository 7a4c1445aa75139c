import { repositoryContract } from "@orchestrator/testing"
import { StorageMemory } from "../src/memory/StorageMemory.js"

repositoryContract("memory", StorageMemory)
