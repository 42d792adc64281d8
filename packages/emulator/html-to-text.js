export { convert } from 'html-to-text';
