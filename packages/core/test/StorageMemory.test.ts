import { StorageMemory } from "@orchestrator/core/memory/StorageMemory"
import { repositoryContract } from "@orchestrator/testing/RepositoryContract"

repositoryContract("memory", StorageMemory)
