import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createPreloadApi } from './api';

// The renderer gets `window.citewise` with `invoke` and `on`, nothing else: no ipcRenderer, no secrets,
// no paths. A drop's File objects go to `invoke('pdfs.chooseDropped')`, whose paths (webUtils, one of
// the modules a sandboxed preload may load) go straight to the main process.
contextBridge.exposeInMainWorld(
  'citewise',
  createPreloadApi(ipcRenderer, (file) => webUtils.getPathForFile(file as File)).api,
);
