// SPDX-License-Identifier: GPL-2.0-or-later
//
// check.mjs: the browser half of tests/check-report (run by it, not by
// hand):
//
//   node check.mjs MODULES_DIR CHROMIUM FILE [ACTION...]
//
// MODULES_DIR holds node_modules/ with playwright-core (the npm packages of
// tests/npm-packages.sh); CHROMIUM is the browser to drive; FILE is one of
// profreport's reports, .svg (the flame graph alone) or .html (the page).
//
// What it does: opens file://FILE in headless Chromium (a 1200x800 window),
// as a user opens the report profreport wrote, reads the flame graph as
// written (each <g class="f">: its <title> "NAME (COST UNIT, PCT%)", its
// rect's place and colour; the tree from the places: the frames are in
// pre-order, a frame's depth is its row), then does the ACTIONs in order,
// with the mouse and the keyboard as a user would, and checks after each
// what the page shows against what the flame graph's rules say it must:
//
//   --hover NAME           move the mouse onto the frame NAME (the widest
//                          one shown, when the name recurs; a heap
//                          profile's "main (m.c:12)" answers to "main")
//   --hover-snapshot N     onto snapshot N's column of the memory chart
//                          (N a number or "peak")
//   --expect-tooltip TEXT  the tooltip of what is under the mouse (the
//                          <title> the browser shows) contains TEXT; over
//                          a frame, the details line below the graph shows
//                          that tooltip too
//   --click NAME           click the frame NAME: it then spans the whole
//                          width, its ancestors are shown (full width),
//                          the frames inside it are spread in proportion,
//                          every other frame is hidden, "Reset Zoom" shows
//                          and the URL's #z= records the zoom; clicking
//                          "all" zooms out
//   --flip                 click "Icicle" (or "Flame"): the graph upside down,
//                          the root at the top, #i=1 in the URL (or back)
//   --reset                click "Reset Zoom": every frame back in place
//   --search RE            click "Search" and type RE in the prompt: the
//                          frames whose name matches are marked, the others
//                          keep their colour, and the page's "Matched: X%"
//                          is the share of the total under the marked
//                          frames, a frame inside another marked frame
//                          counted once; the URL's #s= records RE
//   --matched PCT          the page says "Matched: PCT%" (to 0.01: widths
//                          are written to 0.01 pixel)
//   --clear-search         "Search" again with an empty answer: no mark left
//   --reload               reload the page at its URL (the hash kept): the
//                          same view comes back (every frame's place,
//                          colour and visibility; the "Matched" line)
//   --screenshot OUT.png   save what the window shows (at most 1200x800,
//                          cut to the page)
//
// Any page error, console error or unexpected dialog fails the check.
// Output: one line per finding; the last line is "RESULT: ok", "RESULT:
// fail" or "RESULT: harness".  Exit status: 0 ok, 1 fail, 99 usage error or
// harness failure (browser did not start).  CHECK_READER_TIMEOUT (seconds,
// default 60) bounds the whole run.

import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {launchChromium} from '../browser.mjs'

const [modulesDir, chromiumPath, reportPath, ...rest] = process.argv.slice(2)
const takes = {
  '--hover': 'NAME',
  '--hover-snapshot': 'N',
  '--expect-tooltip': 'TEXT',
  '--click': 'NAME',
  '--reset': null,
  '--flip': null,
  '--search': 'RE',
  '--matched': 'PCT',
  '--clear-search': null,
  '--reload': null,
  '--screenshot': 'OUT.png',
}
function usage(msg) {
  if (msg) console.log(`usage error: ${msg}`)
  console.log('usage: node check.mjs MODULES_DIR CHROMIUM FILE [ACTION...]')
  console.log('RESULT: harness')
  process.exit(99)
}
if (!modulesDir || !chromiumPath || !reportPath) usage()
const actions = []
for (let i = 0; i < rest.length; i++) {
  const op = rest[i]
  if (!(op in takes)) usage(`unknown action ${op}`)
  if (takes[op] === null) {
    actions.push([op])
  } else {
    if (i + 1 >= rest.length) usage(`${op} needs ${takes[op]}`)
    actions.push([op, rest[++i]])
  }
}


const budgetMs = 1000 * (Number(process.env.CHECK_READER_TIMEOUT) || 60)
const deadline = Date.now() + budgetMs
const left = () => Math.max(1000, deadline - Date.now())
setTimeout(() => {
  console.log(`harness: no result within ${budgetMs / 1000 + 10}s`)
  console.log('RESULT: harness')
  process.exit(99)
}, budgetMs + 10000).unref()

const problems = []
const fail = msg => problems.push(msg)
const say = msg => console.log(msg)
const pct = v => v.toFixed(2)
const near = (a, b, tol) => Math.abs(a - b) <= tol
// places are written and moved to 0.01 pixel
const TOL = 0.02

// --- what the page shows -----------------------------------------------------

// In the page: every frame as it is now, and the lines around the graph.
function readPage() {
  const frames = Array.from(document.querySelectorAll('g.f')).map(g => {
    const r = g.querySelector('rect')
    const t = g.querySelector('text')
    const title = g.querySelector('title')
    return {
      title: title ? title.textContent : '',
      x: parseFloat(r.getAttribute('x')),
      y: parseFloat(r.getAttribute('y')),
      w: parseFloat(r.getAttribute('width')),
      fill: r.getAttribute('fill'),
      shown: getComputedStyle(g).display !== 'none',
      opacity: parseFloat(getComputedStyle(g).opacity),
      label: t ? t.textContent : '',
    }
  })
  const text = sel => {
    const e = document.querySelector(sel)
    return e ? e.textContent.trim() : null
  }
  const unzoom = document.querySelector('.unzoom')
  return {
    frames,
    details: text('.details'),
    matched: text('.matched'),
    unzoomShown: unzoom ? parseFloat(getComputedStyle(unzoom).opacity) > 0 : false,
    snapshots: document.querySelectorAll('rect.snap').length,
    script: typeof window.flamegraph === 'object',
    hash: location.hash,
  }
}

// In the page: the tooltip at viewport point [x, y]: the <title> child of
// the element under it or of its nearest ancestor having one; and which
// frame (index among g.f) that element is in, -1 if none.
function tooltipAt([x, y]) {
  const under = document.elementFromPoint(x, y)
  let tip = null
  for (let e = under; e && !tip; e = e.parentElement) {
    for (const c of e.children) {
      if (c.tagName.toLowerCase() === 'title') {
        tip = c.textContent
        break
      }
    }
  }
  const g = under && under.closest('g.f')
  return {
    tip,
    frame: g ? Array.from(document.querySelectorAll('g.f')).indexOf(g) : -1,
    what: under ? under.tagName.toLowerCase() + (under.getAttribute('class') ? '.' + under.getAttribute('class') : '') : 'nothing',
  }
}

// A frame's tooltip: "NAME (TOTAL UNIT, PCT%)", then "self: ..." and, for
// a call graph's function, "FILE, OBJECT", a line each; the details line
// shows the same lines joined by " \u00b7 ".
const nameOf = title => title.split('\n')[0].replace(/ \([^()]*\)$/, '')
const detailsOf = tip => tip.split('\n').join(' \u00b7 ')

// The tree of the frames as written: depth from the row (the root at the
// bottom, larger y), parent from the pre-order.
function treeOf(frames) {
  const parent = []
  const stack = []
  frames.forEach((f, i) => {
    while (stack.length && frames[stack[stack.length - 1]].y <= f.y) stack.pop()
    parent.push(stack.length ? stack[stack.length - 1] : -1)
    stack.push(i)
  })
  return parent
}

// The share of the whole width under the spans (each [x, w]), overlaps
// counted once.
function unionShare(spans, W) {
  spans = spans.slice().sort((a, b) => a[0] - b[0])
  let sum = 0
  let end = -Infinity
  for (const [x, w] of spans) {
    const a = Math.max(x, end)
    const b = x + w
    if (b > a) sum += b - a
    if (b > end) end = b
  }
  return (100 * sum) / W
}

// --- the browser --------------------------------------------------------------

let browser
try {
  browser = await launchChromium(modulesDir, chromiumPath, left())
} catch (e) {
  say(e.message)
  say('RESULT: harness')
  process.exit(99)
}

let exitCode = 1
try {
  const page = await browser.newPage({viewport: {width: 1200, height: 800}})
  page.setDefaultTimeout(Math.min(15000, left()))
  // the answer for the next prompt(), set by --search and --clear-search
  let answer = null
  let prompted = null
  page.on('pageerror', e => fail(`page error: ${e.message}`))
  page.on('console', msg => {
    if (msg.type() === 'error') fail(`console error: ${msg.text()}`)
  })
  page.on('dialog', d => {
    if (d.type() === 'prompt' && answer !== null) {
      prompted = {message: d.message(), value: d.defaultValue()}
      d.accept(answer).catch(() => {})
      answer = null
    } else {
      fail(`unexpected ${d.type()}: ${d.message()}`)
      d.dismiss().catch(() => {})
    }
  })

  const url = pathToFileURL(path.resolve(reportPath)).href
  await page.goto(url, {timeout: left()})
  let state = await page.evaluate(readPage)
  // the report as written: every frame in place, nothing marked
  const orig = state.frames.map(f => ({...f, name: nameOf(f.title)}))
  const parent = treeOf(orig)
  const W = orig.length ? orig[0].w : 0
  const X0 = orig.length ? orig[0].x : 0
  say(
    `opened ${path.basename(reportPath)}: ${orig.length} frames` +
      (state.snapshots ? `, a memory chart of ${state.snapshots} snapshots` : ''),
  )
  if (orig.length && !state.script) fail("the page's script did not run (no window.flamegraph)")
  if (!orig.length && !state.snapshots) fail('no flame graph frame and no chart in the page')

  const isAncestor = (a, j) => {
    for (let p = parent[j]; p >= 0; p = parent[p]) if (p === a) return true
    return false
  }
  // the frame NAME a user would pick: the widest shown; NAME may leave out
  // the place a heap profile's names end with ("main" for "main (m.c:12)")
  const pick = async name => {
    state = await page.evaluate(readPage)
    let best = -1
    for (const is of [n => n === name, n => n.startsWith(name + ' (')]) {
      state.frames.forEach((f, i) => {
        if (f.shown && is(orig[i].name) && (best < 0 || f.w > state.frames[best].w)) best = i
      })
      if (best >= 0) break
    }
    if (best < 0) {
      const like = [...new Set(orig.map(f => f.name).filter(n => n.includes(name) || name.includes(n)))]
      fail(`no frame ${name} shown` + (like.length ? ` (frames like it: ${like.slice(0, 5).join(', ')})` : ''))
    }
    return best
  }
  // the middle of element LOCATOR in the window, scrolled into view
  const centre = async locator => {
    await locator.scrollIntoViewIfNeeded()
    const b = await locator.boundingBox()
    if (!b) return null
    return [b.x + b.width / 2, b.y + b.height / 2]
  }
  let hovered = null // {tip, frame, target, label}

  const hoverAt = async (locator, target, label) => {
    const at = await centre(locator)
    if (!at) {
      fail(`${label}: not on the page`)
      hovered = null
      return
    }
    await page.mouse.move(at[0], at[1])
    const t = await page.evaluate(tooltipAt, at)
    hovered = {...t, target, label}
    if (target >= 0 && t.frame !== target) {
      fail(`${label}: the mouse is over ${t.what}${t.frame >= 0 ? ` of frame ${orig[t.frame].name}` : ''}, not the frame`)
    }
    say(`hover ${label}: tooltip "${t.tip}"`)
  }

  const checkZoom = (i, st) => {
    const z = orig[i]
    let shown = 0
    let hidden = 0
    let anc = 0
    let inside = 0
    const bad = []
    st.frames.forEach((f, j) => {
      const o = orig[j]
      let want // [x, w] or null for hidden
      if (j === i || isAncestor(j, i)) {
        want = [X0, W]
        if (j !== i) anc++
      } else if (isAncestor(i, j)) {
        want = [X0 + ((o.x - z.x) * W) / z.w, (o.w * W) / z.w]
        inside++
      } else {
        want = null
      }
      if (f.shown) shown++
      else hidden++
      if (want === null) {
        if (f.shown) bad.push(`frame ${o.name} (at ${o.x}, width ${o.w}, not above or below ${z.name}) still shown, at ${f.x} width ${f.w}`)
      } else if (!f.shown) {
        bad.push(`frame ${o.name} (${j === i ? 'the one clicked' : isAncestor(j, i) ? 'an ancestor' : 'inside it'}) hidden`)
      } else if (!near(f.x, want[0], TOL) || !near(f.w, want[1], TOL)) {
        bad.push(`frame ${o.name} at ${f.x} width ${f.w}, not ${want[0].toFixed(2)} width ${want[1].toFixed(2)}`)
      }
    })
    for (const b of bad.slice(0, 5)) fail(`zoom into ${z.name}: ${b}`)
    if (bad.length > 5) fail(`zoom into ${z.name}: ... ${bad.length} frames wrong`)
    if (!st.unzoomShown) fail(`zoom into ${z.name}: "Reset Zoom" not shown`)
    if (!/^#(.*&)?z=\d+(&|$)/.test(st.hash)) fail(`zoom into ${z.name}: the URL's hash "${st.hash}" has no z=`)
    say(`zoomed into ${z.name}: it spans the width; ${anc} ancestors and ${inside} frames inside it shown, ${hidden} others hidden; URL ${st.hash}`)
  }

  const checkUnzoomed = (st, why) => {
    const bad = []
    st.frames.forEach((f, j) => {
      const o = orig[j]
      if (!f.shown) bad.push(`frame ${o.name} hidden`)
      else if (!near(f.x, o.x, TOL) || !near(f.w, o.w, TOL)) bad.push(`frame ${o.name} at ${f.x} width ${f.w}, not ${o.x} width ${o.w}`)
      else if (f.opacity < 1) bad.push(`frame ${o.name} still greyed`)
    })
    for (const b of bad.slice(0, 5)) fail(`${why}: ${b}`)
    if (bad.length > 5) fail(`${why}: ... ${bad.length} frames wrong`)
    if (/[#&]z=/.test(st.hash)) fail(`${why}: the URL's hash "${st.hash}" still has z=`)
    say(`${why}: all ${st.frames.length} frames back in place; URL ${st.hash || '(no hash)'}`)
  }

  const askSearch = async re => {
    answer = re
    prompted = null
    await page.locator('.search').click()
    for (let k = 0; k < 50 && !prompted; k++) await page.waitForTimeout(20)
    if (!prompted) {
      answer = null
      fail('"Search" asked nothing (no prompt)')
      return false
    }
    await page.waitForTimeout(50)
    return true
  }

  for (const [op, arg] of actions) {
    if (op === '--hover') {
      const i = await pick(arg)
      if (i < 0) {
        hovered = null
        continue
      }
      await hoverAt(page.locator('g.f').nth(i).locator('rect'), i, `frame ${arg}`)
    } else if (op === '--hover-snapshot') {
      const snaps = page.locator('rect.snap')
      let n = arg === 'peak' ? -1 : Number(arg)
      if (arg === 'peak') {
        const tips = await snaps.evaluateAll(rs => rs.map(r => r.querySelector('title')?.textContent || ''))
        n = tips.findIndex(t => / \(peak\):/.test(t))
      }
      if (!Number.isInteger(n) || n < 0 || n >= state.snapshots) {
        fail(`no snapshot ${arg} in the chart (${state.snapshots} snapshots)`)
        hovered = null
        continue
      }
      await hoverAt(snaps.nth(n), -1, `snapshot ${arg}`)
    } else if (op === '--expect-tooltip') {
      if (!hovered) {
        fail(`tooltip "${arg}": nothing hovered`)
        continue
      }
      if (!hovered.tip || !hovered.tip.includes(arg)) fail(`${hovered.label}: tooltip "${hovered.tip}" lacks "${arg}"`)
      if (hovered.target >= 0) {
        const st = await page.evaluate(readPage)
        if (st.details !== detailsOf(hovered.tip)) fail(`${hovered.label}: the details line says "${st.details}", not the tooltip "${hovered.tip}"`)
      }
    } else if (op === '--click') {
      const i = await pick(arg)
      if (i < 0) continue
      const at = await centre(page.locator('g.f').nth(i).locator('rect'))
      const t = await page.evaluate(tooltipAt, at)
      if (t.frame !== i) fail(`click ${arg}: the mouse is over ${t.what}, not the frame`)
      await page.mouse.click(at[0], at[1])
      await page.waitForTimeout(50)
      state = await page.evaluate(readPage)
      if (i === 0) checkUnzoomed(state, `click ${arg}`)
      else checkZoom(i, state)
    } else if (op === '--flip') {
      // "Icicle" / "Flame": the graph upside down and back, the root at
      // the top in an icicle, every frame the same distance from it.
      const before = await page.evaluate(readPage)
      await page.locator('.flip').click()
      await page.waitForTimeout(50)
      state = await page.evaluate(readPage)
      const icicle = /[#&]i=1(&|$)/.test(state.hash)
      const root = state.frames[0]
      const bad = []
      state.frames.forEach((f, j) => {
        const rise = Math.abs(orig[j].y - orig[0].y)
        const want = icicle ? root.y + rise : root.y - rise
        if (!near(f.y, want, TOL)) bad.push(`frame ${orig[j].name} at y ${f.y}, not ${want}`)
        if (!near(f.x, before.frames[j].x, TOL)) bad.push(`frame ${orig[j].name} moved sideways`)
      })
      if (icicle === (before.frames[0].y < before.frames[1 % before.frames.length].y) && state.frames.length > 1)
        bad.push(`the root did not move (the URL's hash is "${state.hash}")`)
      for (const b of bad.slice(0, 5)) fail(`flip: ${b}`)
      if (bad.length > 5) fail(`flip: ... ${bad.length} frames wrong`)
      if (!bad.length) say(`flipped to ${icicle ? 'an icicle (root at the top)' : 'a flame graph (root at the bottom)'}; URL ${state.hash || '(no hash)'}`)
    } else if (op === '--reset') {
      await page.locator('.unzoom').click()
      await page.waitForTimeout(50)
      state = await page.evaluate(readPage)
      checkUnzoomed(state, 'Reset Zoom')
    } else if (op === '--search' || op === '--clear-search') {
      const re = op === '--search' ? arg : ''
      if (!(await askSearch(re))) continue
      state = await page.evaluate(readPage)
      let rx = null
      try {
        rx = re ? new RegExp(re) : null
      } catch {
        say(`search /${re}/: not a regular expression`)
      }
      const hits = orig.map(o => (rx ? rx.test(o.name) : false))
      const marks = new Set()
      const bad = []
      state.frames.forEach((f, j) => {
        if (hits[j]) {
          if (f.fill === orig[j].fill) bad.push(`frame ${orig[j].name} matches but is not marked`)
          marks.add(f.fill)
        } else if (f.fill !== orig[j].fill) {
          bad.push(`frame ${orig[j].name} does not match but is ${f.fill}, not ${orig[j].fill}`)
        }
      })
      if (marks.size > 1) bad.push(`matching frames marked in ${marks.size} colours`)
      const what = re ? `search /${re}/` : 'clear search'
      for (const b of bad.slice(0, 5)) fail(`${what}: ${b}`)
      if (bad.length > 5) fail(`${what}: ... ${bad.length} frames wrong`)
      const n = hits.filter(Boolean).length
      if (rx) {
        const spans = orig.filter((o, j) => hits[j]).map(o => [o.x, o.w])
        const once = unionShare(spans, W)
        const each = (100 * spans.reduce((s, [, w]) => s + w, 0)) / W
        const m = /^Matched: ([0-9.]+)%$/.exec(state.matched || '')
        if (!m) fail(`${what}: the page says "${state.matched}", not "Matched: N%"`)
        else if (!near(Number(m[1]), once, 0.011)) fail(`${what}: the page says ${state.matched}; the marked frames cover ${pct(once)}% of the width`)
        const names = [...new Set(orig.filter((o, j) => hits[j]).map(o => o.name))]
        say(
          `${what}: ${n} frames marked (${names.slice(0, 4).join(', ')}${names.length > 4 ? ', ...' : ''}); ` +
            `the page says "${state.matched}"; they cover ${pct(once)}% counted once ` +
            `(${pct(each)}% if nested frames counted again); URL ${state.hash}`,
        )
        if (!new RegExp(`[#&]s=${encodeURIComponent(re).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(&|$)`).test(state.hash)) {
          fail(`${what}: the URL's hash "${state.hash}" does not hold s=${encodeURIComponent(re)}`)
        }
      } else {
        if (state.matched) fail(`${what}: the page still says "${state.matched}"`)
        if (/[#&]s=/.test(state.hash)) fail(`${what}: the URL's hash "${state.hash}" still has s=`)
        say(`${what}: no frame marked, no "Matched" line; URL ${state.hash || '(no hash)'}`)
      }
    } else if (op === '--matched') {
      state = await page.evaluate(readPage)
      const m = /^Matched: ([0-9.]+)%$/.exec(state.matched || '')
      if (!m || !near(Number(m[1]), Number(arg), 0.011)) fail(`the page says "${state.matched}", not "Matched: ${arg}%"`)
      else say(`the page says "${state.matched}" (expected ${arg}%)`)
    } else if (op === '--reload') {
      const before = await page.evaluate(readPage)
      const at = page.url()
      await page.reload({timeout: left()})
      const after = await page.evaluate(readPage)
      if (page.url() !== at) fail(`reload: the URL changed from ${at} to ${page.url()}`)
      const bad = []
      after.frames.forEach((f, j) => {
        const b = before.frames[j]
        if (f.shown !== b.shown || f.fill !== b.fill || (f.shown && (!near(f.x, b.x, TOL) || !near(f.w, b.w, TOL) || !near(f.y, b.y, TOL)))) {
          bad.push(`frame ${orig[j].name}: ${b.shown ? `at ${b.x} width ${b.w}` : 'hidden'} ${b.fill} before, ${f.shown ? `at ${f.x} width ${f.w}` : 'hidden'} ${f.fill} after`)
        }
      })
      if (after.matched !== before.matched) bad.push(`"${before.matched}" before, "${after.matched}" after`)
      for (const b of bad.slice(0, 5)) fail(`reload ${after.hash}: ${b}`)
      if (bad.length > 5) fail(`reload: ... ${bad.length} differences`)
      const n = after.frames.filter(f => f.shown).length
      if (!bad.length) say(`reloaded at ${after.hash || '(no hash)'}: the same view (${n} frames shown${after.matched ? `, "${after.matched}"` : ''})`)
      state = after
    } else if (op === '--screenshot') {
      // an .svg document is as large as its <svg>, a page as its content
      const size = await page.evaluate(() => {
        const e = document.documentElement
        if (e.tagName.toLowerCase() === 'svg') {
          const b = e.getBoundingClientRect()
          return [Math.ceil(b.width), Math.ceil(b.height)]
        }
        return [e.scrollWidth, e.scrollHeight]
      })
      const vp = page.viewportSize()
      await page.screenshot({
        path: arg,
        clip: {x: 0, y: 0, width: Math.min(vp.width, size[0]), height: Math.min(vp.height, size[1])},
      })
      say(`screenshot ${arg}`)
    }
  }
  exitCode = problems.length ? 1 : 0
} catch (e) {
  fail(`harness: ${String(e.message).split('\n')[0]}`)
  exitCode = 99
} finally {
  await browser.close().catch(() => {})
}
for (const p of problems) say(p)
say(`RESULT: ${exitCode === 0 ? 'ok' : exitCode === 99 ? 'harness' : 'fail'}`)
process.exit(exitCode)
