// Globals of the pages about Express (and of the pages about neither).
declare const app: import('express').Express;
