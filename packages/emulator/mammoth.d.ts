import mammoth from 'mammoth';
export default mammoth;
