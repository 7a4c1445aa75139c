import { type FailureAnswer, NotFound, ServiceFailure } from "../Failure.js"

export class FileNotFound extends NotFound("FileNotFound", "file") {}

/** An upload that is not a PDF, PNG or JPEG by its content, is empty, or is over the size cap: nothing was stored. */
export class FileInvalid extends ServiceFailure("FileInvalid", {
  kind: "invalid",
  codes: ["file_type_invalid", "file_empty", "file_too_large"],
  description: "The file is not a PDF, PNG or JPEG (judged by its content), is empty, or is larger than 5 MiB; nothing was stored"
})<{ readonly code: "file_type_invalid" | "file_empty" | "file_too_large"; readonly message: string }> {
  get answer(): FailureAnswer {
    return { code: this.code, message: this.message, param: "file" }
  }
}
