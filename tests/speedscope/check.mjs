// SPDX-License-Identifier: GPL-2.0-or-later
//
// check.mjs: the browser half of tests/check-speedscope (run by it, not by
// hand):
//
//   node check.mjs MODULES_DIR CHROMIUM FILE [--import-only] [FUNCTION...]
//
// MODULES_DIR holds node_modules/ with speedscope and playwright-core (npm ci
// of package-lock.json beside this file); CHROMIUM is the browser to drive.
//
// What it does: serves speedscope's built web app (node_modules/speedscope/
// dist/release) and FILE on 127.0.0.1 (an ephemeral port, nothing else),
// opens index.html#profileURL=.../profile/NAME&view=sandwich in headless
// Chromium, which is speedscope's own "load a profile from a URL" path (the
// same import code as drag-and-drop), and waits for one of:
//   - document.title "NAME - speedscope": speedscope sets it once the import
//     returned a profile group (src/views/application.tsx);
//   - the "Something went wrong" page: the importer threw; speedscope logs
//     the exception as console.log('Failed to load format', e);
//   - an alert(): "Unrecognized format!" or "...but it's empty!".
// Then, in the sandwich view (a table of every function with its total and
// self cost), the table must not say "No symbols found." nor show a NaN
// cost, and each FUNCTION is looked up with speedscope's own search (Ctrl+F,
// which filters the table): a row whose symbol name is exactly FUNCTION
// must be there, with numeric costs.
//
// Output: one line per finding; the last line is "RESULT: ok" or
// "RESULT: fail" (the shell script turns it into PASS/FAIL).  Page errors
// and console errors fail the check; speedscope's console notes (e.g.
// "Ignoring assignment to unrecognized key") are printed as "note:".
// Exit status: 0 ok, 1 fail, 99 harness failure (browser did not start).
//
// Time: every wait is bounded; CHECK_READER_TIMEOUT (seconds, default 20)
// bounds the whole run.

import http from 'node:http'
import fs from 'node:fs'
import path from 'node:path'
import {createRequire} from 'node:module'
import {launchChromium} from '../browser.mjs'

const [modulesDir, chromiumPath, profilePath, ...rest] = process.argv.slice(2)
// --import-only: only an import error fails; what the table shows (no
// symbols, NaN costs, missing functions) is printed as notes
const importOnly = rest[0] === '--import-only'
const functions = importOnly ? rest.slice(1) : rest
if (!modulesDir || !chromiumPath || !profilePath) {
  console.log('usage: node check.mjs MODULES_DIR CHROMIUM FILE [FUNCTION...]')
  process.exit(99)
}
const require = createRequire(path.join(path.resolve(modulesDir), 'package.json'))
const distDir = path.join(path.dirname(require.resolve('speedscope/package.json')), 'dist/release')

const budgetMs = 1000 * (Number(process.env.CHECK_READER_TIMEOUT) || 20)
const deadline = Date.now() + budgetMs
const left = () => Math.max(1000, deadline - Date.now())
// a watchdog in case something hangs outside playwright's own timeouts
setTimeout(() => {
  console.log(`harness: no result within ${budgetMs / 1000 + 10}s`)
  console.log('RESULT: harness')
  process.exit(99)
}, budgetMs + 10000).unref()

// In the page: every row of the table, as arrays of cell texts, scrolling
// the table's scrollable container from top to bottom (at most maxMs).
async function collectRows(maxMs) {
  const t0 = performance.now()
  const seen = new Map()
  const read = () => {
    for (const tr of document.querySelectorAll('table tr')) {
      const cells = Array.from(tr.querySelectorAll('td')).map(td => td.innerText.trim())
      if (cells.length) seen.set(cells.join('\t'), cells)
    }
  }
  const settle = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 30)))
  let viewport = null
  for (const t of document.querySelectorAll('table')) {
    for (let e = t.parentElement; e && e !== document.body; e = e.parentElement) {
      const oy = getComputedStyle(e).overflowY
      if ((oy === 'auto' || oy === 'scroll') && e.scrollHeight > e.clientHeight) {
        viewport = e
        break
      }
    }
    if (viewport) break
  }
  if (!viewport) {
    read()
    return Array.from(seen.values())
  }
  viewport.scrollTop = 0
  await settle()
  for (;;) {
    read()
    if (viewport.scrollTop + viewport.clientHeight >= viewport.scrollHeight - 1) break
    if (performance.now() - t0 > maxMs) break
    viewport.scrollTop += Math.max(1, Math.floor(viewport.clientHeight * 0.8))
    await settle()
  }
  return Array.from(seen.values())
}

const problems = []
const notes = []
const fail = msg => problems.push(msg)
const misreads = []
const misread = msg => (importOnly ? misreads.push(msg) : fail(msg))

const profileName = path.basename(profilePath)
const profileData = fs.readFileSync(profilePath)

const types = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
}
const server = http.createServer((req, res) => {
  let url
  try {
    url = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname)
  } catch {
    res.writeHead(400).end()
    return
  }
  if (url === `/profile/${profileName}`) {
    res.writeHead(200, {'Content-Type': 'application/octet-stream'}).end(profileData)
    return
  }
  const file = path.join(distDir, path.normalize(url).replace(/^(\.\.[/\\])+/, ''))
  if (!file.startsWith(distDir + path.sep)) {
    res.writeHead(403).end()
    return
  }
  fs.readFile(file, (err, data) => {
    if (err) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, {'Content-Type': types[path.extname(file)] || 'application/octet-stream'})
    res.end(data)
  })
})
await new Promise((resolve, reject) => {
  server.once('error', reject)
  server.listen(0, '127.0.0.1', resolve)
})
const base = `http://127.0.0.1:${server.address().port}`

let browser
try {
  browser = await launchChromium(modulesDir, chromiumPath, left())
} catch (e) {
  console.log(e.message)
  console.log('RESULT: harness')
  server.close()
  process.exit(99)
}

let exitCode = 1
try {
  const page = await browser.newPage({viewport: {width: 1280, height: 800}})
  let importError = null
  const dialogs = []
  page.on('pageerror', e => fail(`page error: ${e.message}`))
  page.on('dialog', d => {
    dialogs.push(d.message())
    d.dismiss().catch(() => {})
  })
  page.on('console', async msg => {
    const text = msg.text()
    if (text.startsWith('Failed to load format')) {
      // console.log('Failed to load format', e): fetch the exception's text
      const args = msg.args()
      let what = text.split('\n')[0]
      if (args.length > 1) {
        try {
          what = await args[1].evaluate(e => (e && e.message) || String(e))
        } catch {}
      }
      importError = what
      return
    }
    if (msg.type() === 'error') {
      fail(`console error: ${text}`)
    } else if (/^Ignoring |^Unrecognized|unrecognized/.test(text)) {
      notes.push(text)
    }
  })
  page.on('requestfailed', r => {
    if (r.url().startsWith(base)) fail(`request failed: ${r.url()} (${r.failure()?.errorText})`)
  })

  const profileURL = `${base}/profile/${encodeURIComponent(profileName)}`
  await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(profileURL)}&view=sandwich`, {
    timeout: left(),
  })
  const wanted = `${profileName} - speedscope`
  let state = 'timeout'
  const start = Date.now()
  while (Date.now() < deadline) {
    if (dialogs.length) {
      state = 'dialog'
      break
    }
    if (importError !== null) {
      state = 'error'
      break
    }
    const s = await page
      .evaluate(
        want =>
          document.title === want
            ? 'loaded'
            : document.body && document.body.innerText.includes('Something went wrong')
              ? 'error'
              : '',
        wanted,
      )
      .catch(() => '')
    if (s) {
      state = s
      break
    }
    await new Promise(r => setTimeout(r, 100))
  }
  // the exception text arrives with the console message: give it a moment
  if (state === 'error' && importError === null) await page.waitForTimeout(300)

  if (state === 'dialog') {
    fail(`speedscope: ${dialogs.join('; ')}`)
  } else if (state === 'error') {
    fail(`import failed: ${importError ?? 'Something went wrong (no exception text)'}`)
  } else if (state === 'timeout') {
    fail(`not loaded within ${budgetMs / 1000}s (title "${await page.title().catch(() => '?')}")`)
  } else {
    console.log(`imported ${profileName} in ${Date.now() - start} ms`)
    // the sandwich view's table: Total | Self | Symbol Name.  It renders
    // only the rows in view, so scroll through it to read them all.
    const rows = () => page.evaluate(collectRows, Math.min(8000, left()))
    await page.waitForSelector('table', {timeout: left()})
    const all = await rows()
    if (all.some(r => r.length === 1 && /No symbols found/.test(r[0]))) {
      misread('the table says "No symbols found." (no costs were read)')
    }
    const bad = all.filter(r => r.length === 3 && /NaN|undefined|Infinity/.test(r[0] + r[1]))
    for (const r of bad.slice(0, 5)) misread(`bad cost in the table: ${r.join(' | ')}`)
    if (bad.length > 5) misread(`... ${bad.length} rows with bad costs`)
    console.log(`${all.filter(r => r.length === 3).length} functions in the table`)
    for (const fn of functions) {
      // Ctrl+F opens speedscope's search box; its query filters the table
      const input = page.locator('input')
      if (!(await input.count())) {
        await page.keyboard.press('Control+f')
        await input.waitFor({timeout: left()})
      }
      await input.fill(fn)
      await page.waitForTimeout(100)
      const found = (await rows()).filter(r => r.length === 3 && r[2] === fn)
      if (!found.length) {
        misread(`function ${fn} not found`)
        continue
      }
      for (const r of found) {
        if (!/^[0-9]/.test(r[0]) || !/^[0-9]/.test(r[1])) {
          misread(`function ${fn}: bad costs: total "${r[0]}", self "${r[1]}"`)
        }
      }
      console.log(`function ${fn}: total ${found[0][0]}, self ${found[0][1]}`)
    }
  }
  exitCode = problems.length ? 1 : 0
} catch (e) {
  fail(`harness: ${String(e.message).split('\n')[0]}`)
  exitCode = 99
} finally {
  await browser.close().catch(() => {})
  server.close()
}
for (const n of notes.slice(0, 5)) console.log(`note: ${n}`)
if (notes.length > 5) console.log(`note: ... (${notes.length} notes)`)
for (const m of misreads) console.log(`misread (not failed, --import-only): ${m}`)
for (const p of problems) console.log(p)
console.log(`RESULT: ${exitCode === 0 ? 'ok' : exitCode === 99 ? 'harness' : 'fail'}`)
process.exit(exitCode)
