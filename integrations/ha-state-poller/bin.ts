#!/usr/bin/env node
/** `hearth-ha-poller` (package.json bin): see poller.ts and README.md. */
import { main } from './poller.js';

main().then((code) => process.exit(code));
