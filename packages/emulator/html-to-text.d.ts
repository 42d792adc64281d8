export { convert, type DomNode, type FormatCallback } from 'html-to-text';
