import Database from 'better-sqlite3';
const db = new Database('/tmp/probe.db');
const E = '01a21b8f-c483-7594-973d-d3df62da6ed0';
const tok = 'e' + Buffer.from(E).toString('hex');
const t = (label, fn, runs = 7) => { fn(); const ts = []; let r; for (let i = 0; i < runs; i++) { const a = performance.now(); r = fn(); ts.push(performance.now() - a); } ts.sort((a,b)=>a-b); console.log(label.padEnd(50), ts[Math.floor(runs/2)].toFixed(2), 'ms', JSON.stringify(r).slice(0, 80)); };
for (const q of ['"invoice"*', '"INV"* "1234"*', '"expense"* "12"*']) {
  const m = `entity : "${tok}" AND {body} : (${q})`;
  t(q+' count no entity', () => db.prepare('select count(*) n from ls where ls match ?').get(`{body} : (${q})`));
  t(q+' count entity tok', () => db.prepare('select count(*) n from ls where ls match ?').get(m));
  t(q+' page entity tok', () => db.prepare('select rowid from ls where ls match ? order by rowid desc limit 51').all(m).length);
  t(q+' page no entity', () => db.prepare('select rowid from ls where ls match ? order by rowid desc limit 51').all(`{body} : (${q})`).length);
}
