// The JSON API client: every call answers the parsed JSON or throws an Error with the
// server's {"error": "..."} message (and the answer's HTTP status as its `status`). A call given an AbortSignal stops when it aborts (the
// server stops its work too, as for any client gone): it then throws the signal's AbortError.

export async function api(path, body, signal) {
  let response;
  try {
    response = await fetch(`/api/${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    signal?.throwIfAborted();
    throw new Error("cannot reach the sudokit server");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  signal?.throwIfAborted(); // aborted while the answer was read
  if (!response.ok) {
    const err = new Error((data && data.error) || `request failed (${response.status})`);
    err.status = response.status; // 504: past the server's time limit
    throw err;
  }
  return data;
}
