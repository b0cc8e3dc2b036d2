// The request helper the benches' load workers share (their code is evaluated as a string in a
// worker thread): `post(path, body)` with the API key, over the worker's own `agent` and `target`.
export const WORKER_POST = `
function post(path, body) {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = http.request({ host: target.hostname, port: target.port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': data.length, authorization: 'Bearer ' + key } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(data);
  });
}
`;
