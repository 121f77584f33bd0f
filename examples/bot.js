// A 够级 bot in JavaScript (Node 18+), for `gouji event run`, `gouji simulate` and `gouji compare`:
//   gouji simulate --agents "cmd:node examples/bot.js,greedy"
// The protocol is docs/bot-protocol.md: one JSON object a line each way.  It plays a uniformly
// random legal action, drawn from a generator seeded by the hand's seed, so a run repeats exactly.
// It speaks protocol 3, where the seed (up to 2^64 - 1) is a decimal string: JSON.parse would read
// it as a number inexactly.  A runner too old to offer 3 speaks 2, whose exact seed is `seed_str`.
const readline = require("readline");

let state = 0n; // xorshift64 state
const MASK = (1n << 64n) - 1n;

function next() {
  state ^= (state << 13n) & MASK;
  state ^= state >> 7n;
  state ^= (state << 17n) & MASK;
  return state;
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") {
    const protocol = (msg.protocols || []).includes(3) ? 3 : 2;
    console.log(JSON.stringify({ type: "hello", id: msg.id, protocol: protocol, name: "random.js" }));
  } else if (msg.type === "start_hand") {
    const seed = BigInt(msg.protocol === 3 ? msg.seed : msg.seed_str);
    state = (seed ^ BigInt(msg.seat + 1)) || 1n; // never 0: xorshift would stay 0
  } else if (msg.type === "act") {
    const index = Number(next() % BigInt(msg.legal_count));
    console.log(JSON.stringify({ id: msg.id, index: index }));
  }
});
