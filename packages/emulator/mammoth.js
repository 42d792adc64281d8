export { default } from 'mammoth';
