export { default } from 'busboy';
