// Prints the worked examples of docs/structured-output.md from real runs: `npm run docs:structured-examples`.
import 'reflect-metadata';
import { structuredExamples } from './structured-examples.js';

for (const [name, example] of await structuredExamples()) process.stdout.write(`<!-- example: ${name} -->\n\`\`\`json\n${example}\n\`\`\`\n\n`);
