export { marked } from 'marked';
