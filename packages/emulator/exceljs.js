export { default } from 'exceljs';
