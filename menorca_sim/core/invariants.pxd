# invariants.py is compiled as it is (no C declarations on purpose): its checks read the
# engine through its Python face and count from scratch what the engine keeps counted;
# they run only with check=True.
