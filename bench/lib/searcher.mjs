// Measures GET /api/v2/sec/share/search from its own process (so the load
// clients' event loop does not add to the figures): one request every 50 ms
// until the deadline, then prints the latencies as JSON.
const [url, token, until] = process.argv.slice(2);
const latencies = [];
let errors = 0;
while (Date.now() < Number(until)) {
  const started = performance.now();
  try {
    const res = await fetch(`${url}/api/v2/sec/share/search?q=bench`, { headers: { 'Service-Auth': token } });
    await res.arrayBuffer();
    if (res.status !== 200) errors++;
  } catch {
    errors++;
  }
  latencies.push(performance.now() - started);
  await new Promise((r) => setTimeout(r, 50));
}
console.log(JSON.stringify({ latencies, errors }));
