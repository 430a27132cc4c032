export * from './ast';
export { tokenize, type Token } from './tokenizer';
export { parseQuery, checkQuery, parseRange, QUERY_FIELDS, type QueryParse } from './parser';
export { printQuery, printRange, quote, withoutSpans } from './print';
export * from './builder';
