import { StorageMemory } from "@orchestrator/core/Services"
import { repositoryContract } from "./contract/RepositoryContract.js"

repositoryContract("memory", StorageMemory)
