// The JSON API client: every call answers the parsed JSON or throws an Error with the
// server's {"error": "..."} message.

export async function api(path, body) {
  let response;
  try {
    response = await fetch(`/api/${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new Error("cannot reach the sudokit server");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    throw new Error((data && data.error) || `request failed (${response.status})`);
  }
  return data;
}
