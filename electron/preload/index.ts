import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadApi } from './api';

// The renderer gets `window.citewise` with `invoke` and `on`, nothing else: no ipcRenderer, no secrets.
contextBridge.exposeInMainWorld('citewise', createPreloadApi(ipcRenderer).api);
