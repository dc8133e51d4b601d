#!/usr/bin/env node
// The entry point: the decorator metadata polyfill is loaded here, once, before anything uses tsyringe.
import 'reflect-metadata';
import { main } from './cli/main.js';

await main(process.argv);
