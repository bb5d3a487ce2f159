from hogbench.cli import main

main()
