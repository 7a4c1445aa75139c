/** The front door of @orchestrator/testing: everything another package may use. */
export { type Frame, launchBrowser, newPage, type Page, screenshot } from "./Browser.js"
export { forkAndAdvance } from "./ClockSteps.js"
export { testConnection } from "./Connections.js"
export * as storageFixtures from "./contracts/StorageContractFixtures.js"
export { lifecycleContract } from "./LifecycleContract.js"
export { alive, descendants, freePort } from "./Processes.js"
export { checkoutComSignature, checkoutComToken, type FakeCheckoutCom, fakeCheckoutCom } from "./psp/checkoutcom/Fake.js"
export { connectorContract, type ContractRig } from "./psp/ConnectorContract.js"
export { type FakeAdyen, fakeAdyen, type NotificationFields } from "./psp/FakeAdyen.js"
export { type FakeStripe, fakeStripe } from "./psp/FakeStripe.js"
export { FAKE_STRIPE_RETRY_DAYS } from "./psp/FakeStripeBilling.js"
export { type FakeMollie, fakeMollie } from "./psp/mollie/Fake.js"
export { minorOf } from "./psp/mollie/Objects.js"
export {
  decodeFormBody,
  type MultipartPart,
  multipartParts,
  multipartUploads,
  OpenApiContract,
  type RecordedExchange,
  type UploadedFile
} from "./psp/OpenApiContract.js"
export { type FakePayPal, fakePayPal } from "./psp/paypal/Fake.js"
export { type FakeTemplate, fakeTemplate } from "./psp/template/Fake.js"
export { repositoryContract } from "./RepositoryContract.js"
export { SOFTHSM_MODULE, softHsmToken } from "./SoftHsm.js"
export { durableTestDatabases, testDatabases } from "./TestDatabases.js"
