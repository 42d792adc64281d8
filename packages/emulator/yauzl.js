export { default } from 'yauzl';
