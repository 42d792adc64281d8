export { parse } from 'csv-parse/sync';
