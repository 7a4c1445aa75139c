import { StorageMemory } from "@orchestrator/core/memory/StorageMemory"
import { lifecycleContract } from "@orchestrator/testing/LifecycleContract"

lifecycleContract("memory", StorageMemory)
