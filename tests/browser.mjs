// tests/browser.mjs: the headless Chromium that the browser checks drive
// (tests/report/check.mjs for profreport's pages, tests/speedscope/check.mjs
// for speedscope), started one way for both.
//
//   import {launchChromium} from '../browser.mjs'
//   const browser = await launchChromium(MODULES_DIR, CHROMIUM, TIMEOUT_MS)
//
// MODULES_DIR holds the npm packages (tests/npm-packages.sh installs
// playwright-core there); CHROMIUM is the browser's executable (Debian's
// /usr/bin/chromium).  The browser is headless, without sandbox (CI runs
// as root), GPU, QUIC or any background network traffic of its own, and
// playwright gives it a fresh temporary profile.  A browser that cannot
// start throws an Error whose message is one line,
// "harness: cannot start CHROMIUM: REASON", for the check to print before
// it exits 99 (a harness failure, not a verdict on the page).
//
// Copyright (C) 2026 The heapsnap/callprof developers.
// SPDX-License-Identifier: GPL-2.0-or-later

import path from 'node:path'
import {createRequire} from 'node:module'

export async function launchChromium(modulesDir, chromiumPath, timeout) {
  const require = createRequire(path.join(path.resolve(modulesDir), 'package.json'))
  const {chromium} = require('playwright-core')
  try {
    return await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      timeout,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  } catch (e) {
    throw new Error(`harness: cannot start ${chromiumPath}: ${String(e.message).split('\n')[0]}`)
  }
}
