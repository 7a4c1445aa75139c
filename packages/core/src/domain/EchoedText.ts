/** The most characters of a client's own value that a message repeats back. */
export const ECHO_LIMIT = 100

/**
 * A client's value as an error message may repeat it: whole up to 100 characters, else its start and
 * an ellipsis, so a message stays readable and an 8 KB header or id is never sent back in full.
 */
export const echoed = (value: string): string => {
  if (value.length <= ECHO_LIMIT) return value
  let end = ECHO_LIMIT - 1
  // Never cut a surrogate pair in half: the message would carry an unpaired surrogate.
  const last = value.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return `${value.slice(0, end)}…`
}
